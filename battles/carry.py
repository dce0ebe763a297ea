"""The finished battles a campaign roster may carry (armies/campaign.py reads them through settings'
CAMPAIGN_BATTLES, so armies never imports battles). Plain data out; a battle the user may not carry is a 404.

Who may carry a battle into a roster: the roster's owner, who played that roster's side in the battle (or created
the battle and left that side to nobody).
"""

from __future__ import annotations

from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _

from battles.models import BattleSide, BattleUnit


class FinishedBattles:
    def sides(self, user, roster):
        """The battle sides of this roster that `user` may carry, with their battles."""
        if not user.is_authenticated or roster.owner_id != user.pk:
            return BattleSide.objects.none()
        played = Q(player=user) | Q(player__isnull=True, battle__created_by=user)
        return BattleSide.objects.filter(played, roster=roster).select_related("battle").defer("snapshot")

    def to_carry(self, user, roster) -> list[dict]:
        """The finished battles of this roster the user may carry, the latest first: [{"id", "name", "side",
        "ended_at"}]."""
        out = []
        for side in self.sides(user, roster).order_by("-battle__updated_at"):
            battle = side.battle
            if battle.status == "finished":
                out.append({"id": battle.pk, "name": battle.name, "side": side.index, "ended_at": battle.updated_at})
        return out

    def for_carry(self, user, roster, battle_id) -> dict:
        """The battle with its final state ({"id", "name", "side", "ended_at", "finished", "settings", "final"});
        Http404 when the user may not carry it."""
        side = None
        if str(battle_id).isdigit():
            side = self.sides(user, roster).filter(battle_id=int(battle_id)).first()
        if side is None:
            raise Http404(_("No such battle of this roster."))
        battle = side.battle
        units = (
            BattleUnit.objects.filter(battle=battle)
            .order_by("position")
            .values_list("key", "side__index", "profile", "state")
        )
        return {
            "id": battle.pk,
            "name": battle.name,
            "side": side.index,
            "ended_at": battle.updated_at,
            "finished": battle.status == "finished",
            "settings": dict((battle.settings or {}).get("system") or {}),
            "final": {
                "game": battle.state,
                "units": {key: {"side": s, "profile": profile, "state": state} for key, s, profile, state in units},
            },
        }


SOURCE = FinishedBattles()
