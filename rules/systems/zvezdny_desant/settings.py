"""Settings of «Звездный Десант» (demo rules): the book's options (format, turns, command points, tournament play)
and one named setting for EVERY ambiguity of the spec's §5 (A1–A32) plus the two errata, each with the spec's
suggested reading as its default and `source="§5 A<n>"`. Where the spec shows a contradiction (A1), the default
follows the core rule.

Keys are stable: battles store them and the simulator reads them. Readings with no rule effect in the demo (A17,
A26, A28, A32) are single-choice "interpretation" settings, so the reading is still named and documented.
"""

from __future__ import annotations

from rules.contract.settings import AMBIGUITY, INTERPRETATION, OPTION, Setting, SettingsCatalogue
from rules.i18n import N_

SETTINGS: tuple[Setting, ...] = (
    # The book's options (§1.6, §2.1) ------------------------------------------------------------------
    Setting(
        key="army_limit",
        label=N_("Army cost limit («Skirmish»)"),
        default=500,
        kind="int",
        source="§2.1 (L746–748, L756)",
        category=OPTION,
        help=N_("«Skirmish»: an army may cost 500 points or less; 501 is too much."),
    ),
    Setting(
        key="max_turns",
        label=N_("Game length in turns"),
        default=5,
        kind="int",
        source="§1.6 (L784–786)",
        category=OPTION,
        help=N_("The standard game lasts 5 turns; players may agree on another length."),
    ),
    Setting(
        key="tournament",
        label=N_("Tournament play"),
        default=False,
        source="§2.1 (L758–760)",
        category=OPTION,
        help=N_("At tournaments an army may not mix factions (an error); otherwise mixing is only a warning."),
    ),
    # §5.1 gaps -------------------------------------------------------------------------------------------
    Setting(
        key="shooting_morale",
        label=N_("Morale after shooting losses"),
        default="none",
        kind="choice",
        choices=("none", "manual"),
        source="§5 A2",
        category=AMBIGUITY,
        help=N_(
            "The demo has no rule (full rulebook). «manual»: a unit that lost figures to shooting is flagged for "
            "a morale check the players rule on by hand."
        ),
    ),
    Setting(
        key="melee_result",
        label=N_("Who wins a melee"),
        default="manual",
        kind="choice",
        choices=("manual", "more_wounds"),
        source="§5 A3",
        category=AMBIGUITY,
        help=N_(
            "Only total destruction is a sure win (L726). «manual»: players declare the result; «more_wounds» "
            "(house rule, not canonical): the side that inflicted more wounds wins."
        ),
    ),
    Setting(
        key="states_by_hand",
        label=N_("Panic and fire suppression set by hand"),
        default=True,
        source="§5 A4",
        category=AMBIGUITY,
        help=N_(
            "Panic and suppression come from the full rulebook. When on, players may mark a unit panicked "
            "(no order, skipped) or suppressed (no move or shooting) by hand; when off, those marks are refused."
        ),
    ),
    Setting(
        key="command_points",
        label=N_("Command points per turn"),
        default=10,
        kind="int",
        source="§5 A5 (L210, L748)",
        category=OPTION,
        help=N_("«Skirmish» gives 10 per turn. Other army sizes are by agreement."),
    ),
    # §5.2 contradictions and unclear wording ------------------------------------------------------------
    Setting(
        key="attack_target_modifier",
        label=N_("Shooting at a unit on «Attack»"),
        default="core",
        kind="choice",
        choices=("core", "example"),
        source="§5 A1",
        category=AMBIGUITY,
        help=N_(
            "«core» (L452): shooting at a unit on «Attack» gets −2 (easier). «example» follows the L290 example "
            "literally: +2 (harder)."
        ),
    ),
    Setting(
        key="rolloff_ties",
        label=N_("Tied roll-offs"),
        default="reroll",
        kind="choice",
        choices=("reroll", "keep_previous"),
        source="§5 A6",
        category=AMBIGUITY,
        help=N_(
            "«reroll»: roll again until the dice differ. «keep_previous»: a tied First Player roll keeps last "
            "turn's First Player (turn 1 and deployment still re-roll)."
        ),
    ),
    Setting(
        key="cp_underspend",
        label=N_("Command points left unspent"),
        default="refuse",
        kind="choice",
        choices=("refuse", "lost"),
        source="§5 A7 (L220)",
        category=AMBIGUITY,
        help=N_(
            "«refuse»: orders must spend every command point. «lost»: fewer may be spent; the rest are lost "
            "(never banked)."
        ),
    ),
    Setting(
        key="missing_hrk",
        label=N_("Weapon with no Pen for the target's armour class"),
        default="cannot_wound",
        kind="choice",
        choices=("cannot_wound", "refuse"),
        source="§5 A8",
        category=AMBIGUITY,
        help=N_(
            "«cannot_wound»: hits from it never wound that class. «refuse»: such a shot is refused as an input "
            "error (the card must give the class)."
        ),
    ),
    Setting(
        key="wound_test_clamp",
        label=N_("Bounds of the wound test"),
        default="none",
        kind="choice",
        choices=("none", "like_hit_test"),
        source="§5 A9",
        category=AMBIGUITY,
        help=N_("«none»: the ЛБХ number is used as is. «like_hit_test»: clamped to 4+…20+ like the hit test."),
    ),
    Setting(
        key="mixed_stk",
        label=N_("Figures of one unit with different Tgh"),
        default="refuse",
        kind="choice",
        choices=("refuse", "lowest"),
        source="§5 A10 (L544)",
        category=AMBIGUITY,
        help=N_(
            "Markers are pooled by the unit's Tgh. «refuse»: a unit must have one Tgh (a roster error). "
            "«lowest»: the lowest Tgh of its figures is used (a warning)."
        ),
    ),
    Setting(
        key="killable_basis",
        label=N_("Whose sight and range decide who can die"),
        default="same_figure",
        kind="choice",
        choices=("same_figure", "whole_unit"),
        source="§5 A11 (L396, L426, L558–561)",
        category=AMBIGUITY,
        help=N_(
            "«same_figure»: a shooting figure rolls, and a target figure can die, only where one shooting "
            "figure both sees and reaches it. «whole_unit»: sight and range are checked separately, by any figure."
        ),
    ),
    Setting(
        key="cover_basis",
        label=N_("Figures counted for cover"),
        default="all_alive",
        kind="choice",
        choices=("all_alive", "visible_only"),
        source="§5 A12 (L473)",
        category=AMBIGUITY,
        help=N_("«More than ½ of the unit in cover»: of all its living figures, or only of those the shooter sees."),
    ),
    Setting(
        key="grey_zone_cover",
        label=N_("Cover in a grey zone"),
        default="per_piece",
        kind="choice",
        choices=("per_piece", "light"),
        source="§5 A13 (L382)",
        category=AMBIGUITY,
        help=N_(
            "«per_piece»: each grey-zone piece names its cover (woods light, ruins medium…). «light»: every "
            "grey zone gives light cover."
        ),
    ),
    Setting(
        key="same_unit_screens",
        label=N_("Figures of the target unit screen each other"),
        default=False,
        source="§5 A14 (L364)",
        category=AMBIGUITY,
        help=N_("Off: enemy infantry blocks sight only to figures of other units behind it."),
    ),
    Setting(
        key="shoot_then_assault_target",
        label=N_("Target of «shoot, then assault»"),
        default="same_unit",
        kind="choice",
        choices=("same_unit", "any"),
        source="§5 A15 (L202, L613)",
        category=AMBIGUITY,
        help=N_("«same_unit»: a unit on «Attack» that shoots and then assaults must shoot the unit it assaults."),
    ),
    Setting(
        key="closing_in_attack_penalty",
        label=N_("«Attack» −3 Mob during closing in"),
        default=False,
        source="§5 A16 (L714, L621)",
        category=AMBIGUITY,
        help=N_("Units in melee have no order card, so by default the −3 does not apply; terrain still does."),
    ),
    Setting(
        key="dead_figures_cleanup",
        label=N_("Removing the figures of the dead at the start of a turn"),
        default="cosmetic",
        kind="choice",
        choices=("cosmetic",),
        source="§5 A17 (L150)",
        category=INTERPRETATION,
        help=N_("Casualties leave at once (L571, L659); the start-of-turn step only tidies the table."),
    ),
    Setting(
        key="zero_initiative_order_counts",
        label=N_("A 0-initiative unit's order still changes shots at it"),
        default=True,
        source="§5 A18 (L218, L276, L290)",
        category=AMBIGUITY,
        help=N_("On: a unit with initiative 0 on «Defence» is still shot at +2. Off: it counts as «Move» (+0)."),
    ),
    Setting(
        key="bsp_floor",
        label=N_("Lowest CA in melee"),
        default=0,
        kind="int",
        source="§5 A19 (L657, L704)",
        category=AMBIGUITY,
        help=N_("0: no floor (a CA of 1 or less is hit by every strike). Only a cap of 20 is written."),
    ),
    Setting(
        key="no_order_target",
        label=N_("Shooting at a unit with no order"),
        default="move",
        kind="choice",
        choices=("move", "defence"),
        source="§5 A20 (L228)",
        category=AMBIGUITY,
        help=N_("A panicked unit has no order card: it is shot at as if on «Move» (+0), or as on «Defence»."),
    ),
    Setting(
        key="melee_figure_count",
        label=N_("Figures counted for the +1 CA"),
        default="all_alive",
        kind="choice",
        choices=("all_alive", "engaged_only"),
        source="§5 A21 (L654)",
        category=AMBIGUITY,
        help=N_("«More figures than the enemy unit»: all living figures, or only those able to strike."),
    ),
    Setting(
        key="multi_sided_strikes",
        label=N_("Choosing targets in a multi-sided melee"),
        default="per_figure",
        kind="choice",
        choices=("per_figure", "per_unit"),
        source="§5 A22 (L693–695)",
        category=AMBIGUITY,
        help=N_(
            "«per_figure»: each figure picks the enemy unit it strikes. «per_unit»: all figures of one unit "
            "strike the same enemy unit."
        ),
    ),
    Setting(
        key="vp_rounding",
        label=N_("Half victory points"),
        default="exact",
        kind="choice",
        choices=("exact", "down", "up"),
        source="§5 A23 (L796)",
        category=AMBIGUITY,
        help=N_("«½ of their cost»: kept exact (e.g. 62.5), or rounded down or up."),
    ),
    Setting(
        key="vp_half_threshold",
        label=N_("Losses that give half victory points"),
        default="more_than_half",
        kind="choice",
        choices=("more_than_half", "half_or_more"),
        source="§5 A23 (L796)",
        category=AMBIGUITY,
        help=N_(
            "The book: «more than ½» of the starting figures lost (strictly more). «half_or_more» counts exactly ½."
        ),
    ),
    Setting(
        key="melee_engages",
        label=N_("Units engaged by an assault"),
        default="any_within_3",
        kind="choice",
        choices=("any_within_3", "target_only"),
        source="§5 A24 (L601, L605)",
        category=AMBIGUITY,
        help=N_(
            "«any_within_3»: every enemy unit with a figure within 3 steps of an assaulting figure joins the "
            "melee. «target_only»: only the declared target."
        ),
    ),
    Setting(
        key="skipped_unit",
        label=N_("A unit skipped in the activation order"),
        default="never",
        kind="choice",
        choices=("never", "at_end"),
        source="§5 A25 (L272)",
        category=AMBIGUITY,
        help=N_(
            "«never»: a unit that cannot act when its turn comes does not act this turn. «at_end»: it gets one "
            "more chance after every other unit."
        ),
    ),
    Setting(
        key="melee_order",
        label=N_("Order of separate melees"),
        default="independent",
        kind="choice",
        choices=("independent",),
        source="§5 A26 (L659, L716)",
        category=INTERPRETATION,
        help=N_("Strikes are simultaneous within a melee; separate melees do not affect each other."),
    ),
    Setting(
        key="assault_unit_in_melee",
        label=N_("Assaulting a unit already in melee"),
        default=True,
        source="§5 A27 (L410, L691)",
        category=AMBIGUITY,
        help=N_("On: allowed (it makes a multi-sided melee). Only shooting at such a unit is forbidden."),
    ),
    Setting(
        key="defence_out_of_cd",
        label=N_("«Defence» with a figure out of Command Distance"),
        default="rest_shoot",
        kind="choice",
        choices=("rest_shoot",),
        source="§5 A28 (L416)",
        category=INTERPRETATION,
        help=N_("That figure neither shoots nor moves back; the rest of the unit shoots normally."),
    ),
    Setting(
        key="grey_zone_symmetric",
        label=N_("Sight through a grey zone is symmetric"),
        default=True,
        source="§5 A29 (L384)",
        category=AMBIGUITY,
        help=N_("On: a figure more than 3 steps deep can neither see nor be seen from outside. Off: it sees out."),
    ),
    Setting(
        key="slopes_downhill",
        label=N_("Slopes slow figures going downhill"),
        default=False,
        source="§5 A30 (L346)",
        category=AMBIGUITY,
        help=N_("Off (the book): only the climb is difficult terrain."),
    ),
    Setting(
        key="deployment_geometry",
        label=N_("Deployment zones"),
        default="neutral_20",
        kind="choice",
        choices=("neutral_20", "thirds"),
        source="§5 A31 (L766–770)",
        category=AMBIGUITY,
        help=N_(
            "«neutral_20»: a neutral band of 20 steps, the rest split equally. «thirds»: equal thirds, which "
            "needs a table of at least 60 steps."
        ),
    ),
    Setting(
        key="typos",
        label=N_("Typos of the demo text"),
        default="no_effect",
        kind="choice",
        choices=("no_effect",),
        source="§5 A32 (L11, L66, L410, L490)",
        category=INTERPRETATION,
        help=N_("The book's «armour-penetrating» misprint is read as meant; the other typos change no rule."),
    ),
    # Errata (the book wins over the spec) ---------------------------------------------------------------
    Setting(
        key="reroll_scope",
        label=N_("What one re-roll re-rolls"),
        default="figure_test",
        kind="choice",
        choices=("figure_test", "one_die"),
        source="Errata (L86, L430)",
        category=AMBIGUITY,
        help=N_(
            "«figure_test»: all the ROF dice of one figure are one hit test, re-rolled together "
            "(L430). «one_die»: a re-roll takes one die."
        ),
    ),
    Setting(
        key="leftover_markers",
        label=N_("Markers left when no figure that can die is left"),
        default="discard",
        kind="choice",
        choices=("discard", "keep_remainder"),
        source="Errata (L565, L685)",
        category=AMBIGUITY,
        help=N_(
            "«discard» (the book): once every figure that could die is dead, the remaining markers are removed. "
            "«keep_remainder» (the spec's §4.3): markers beyond a whole Tgh stay on the unit."
        ),
    ),
)

# Each choice in words, Russian in this package's catalogue (Setting.describe() translates them; the game stores
# the raw value).
CHOICE_LABELS = {
    "shooting_morale": (("none", N_("no morale check (demo rules)")), ("manual", N_("flag it for a check by hand"))),
    "melee_result": (("manual", N_("the players declare it")), ("more_wounds", N_("more wounds inflicted wins"))),
    "attack_target_modifier": (
        ("core", N_("−2, as the core rule (L452)")),
        ("example", N_("+2, as the example (L290)")),
    ),
    "rolloff_ties": (("reroll", N_("roll again")), ("keep_previous", N_("last turn's First Player keeps it"))),
    "cp_underspend": (("refuse", N_("every point must be spent")), ("lost", N_("the rest are lost"))),
    "missing_hrk": (("cannot_wound", N_("its hits cannot wound")), ("refuse", N_("the shot is refused"))),
    "wound_test_clamp": (("none", N_("the number as it is")), ("like_hit_test", N_("from 4+ to 20+, as the hit test"))),
    "mixed_stk": (("refuse", N_("one Tgh per unit (an error)")), ("lowest", N_("the lowest Tgh (a warning)"))),
    "killable_basis": (
        ("same_figure", N_("one figure both sees and reaches")),
        ("whole_unit", N_("any figure sees, any reaches")),
    ),
    "cover_basis": (("all_alive", N_("all living figures")), ("visible_only", N_("only the figures seen"))),
    "grey_zone_cover": (("per_piece", N_("each piece names its cover")), ("light", N_("always light cover"))),
    "shoot_then_assault_target": (("same_unit", N_("the unit it assaults")), ("any", N_("any unit"))),
    "dead_figures_cleanup": (("cosmetic", N_("only tidies the table")),),
    "no_order_target": (("move", N_("as on «Move» (+0)")), ("defence", N_("as on «Defence» (+2)"))),
    "melee_figure_count": (
        ("all_alive", N_("all living figures")),
        ("engaged_only", N_("only figures able to strike")),
    ),
    "multi_sided_strikes": (
        ("per_figure", N_("each figure picks its target")),
        ("per_unit", N_("one target for the whole unit")),
    ),
    "vp_rounding": (("exact", N_("exact (e.g. 62.5)")), ("down", N_("rounded down")), ("up", N_("rounded up"))),
    "vp_half_threshold": (("more_than_half", N_("more than ½ lost")), ("half_or_more", N_("½ or more lost"))),
    "melee_engages": (
        ("any_within_3", N_("every enemy unit within 3 steps")),
        ("target_only", N_("only the declared target")),
    ),
    "skipped_unit": (("never", N_("it does not act this turn")), ("at_end", N_("one more chance at the end"))),
    "melee_order": (("independent", N_("separate melees are independent")),),
    "defence_out_of_cd": (("rest_shoot", N_("the rest of the unit shoots")),),
    "deployment_geometry": (
        ("neutral_20", N_("a neutral band of 20 steps")),
        ("thirds", N_("equal thirds of the table")),
    ),
    "typos": (("no_effect", N_("they change no rule")),),
    "reroll_scope": (("figure_test", N_("all dice of one figure's test")), ("one_die", N_("one die"))),
    "leftover_markers": (("discard", N_("removed (the book)")), ("keep_remainder", N_("kept beyond a whole Tgh"))),
}
CATALOGUE = SettingsCatalogue(SETTINGS, choice_labels=CHOICE_LABELS)
SETTINGS, SETTINGS_BY_KEY = CATALOGUE.all, CATALOGUE.by_key
defaults, full_settings = CATALOGUE.defaults, CATALOGUE.full
