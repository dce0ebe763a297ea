"""The campaign section of a roster page: its history of scenarios (anyone who reads the roster) and, for the
owner, the finished battles that may be carried into it. Drawn only for a system with a campaign part."""

from django import template

from armies import campaign

register = template.Library()


@register.inclusion_tag("armies/_campaign.html", takes_context=True)
def campaign_section(context, roster):
    if roster is None or campaign.campaign_part(roster.system) is None:
        return {"shown": False}
    request = context.get("request")
    user = getattr(request, "user", None)
    can_carry = bool(user and user.is_authenticated and roster.owner_id == user.pk and not context.get("token"))
    return {
        "shown": True,
        "roster": roster,
        "history": campaign.roster_history(roster),
        "to_carry": campaign.battles_to_carry(user, roster) if can_carry else [],
        "can_carry": can_carry,
        "csrf_token": context.get("csrf_token"),
    }
