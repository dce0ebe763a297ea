"""Club ladders from confirmed results, with openskill's Plackett–Luce model (Weng & Lin, 2011) rather than
hand-written maths (issue #29).

A ladder is always recomputed from the results, in the order they were confirmed: the same results give the same
ratings, and nothing is stored that a person could edit. Each game is a match of one player per side; a draw ranks
both sides equal. A player's rating is shown as openskill's ordinal (μ − 3σ: what the player is rated at least, with
little doubt), and stays provisional until PROVISIONAL_GAMES games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class Game:
    """One confirmed result as the ladder reads it: `places` are (player id, rank) pairs, rank 1 the winner; equal
    ranks are a draw."""

    id: int
    when: object
    places: tuple[tuple[int, int], ...]


@dataclass
class Standing:
    player: int
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    history: list[tuple[int, object, float]] = field(default_factory=list)  # (game id, when, ordinal after)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def model() -> PlackettLuce:
    return PlackettLuce()


def rate_teams(teams: list[list], ranks: list[int] | None = None, *, using: PlackettLuce | None = None) -> list[list]:
    """openskill's own rating step (used by the ladder, and by the test that checks the library's published
    example)."""
    return (using or model()).rate(teams, ranks=ranks)


def ladder(games: list[Game]) -> list[Standing]:
    """The standings after `games` (in the order given), best ordinal first."""
    m = model()
    ratings: dict[int, object] = {}
    standings: dict[int, Standing] = {}
    for game in games:
        players = [p for p, _rank in game.places]
        if len(players) < 2 or len(set(players)) != len(players):
            continue  # a side without a player, or one player on both sides: nothing to rate
        teams = [[ratings.setdefault(p, m.rating(name=str(p)))] for p in players]
        ranks = [rank for _p, rank in game.places]
        rated = rate_teams(teams, ranks, using=m)
        best = min(ranks)
        for (player, rank), (new,) in zip(game.places, rated, strict=True):
            ratings[player] = new
            s = standings.setdefault(player, Standing(player, new.mu, new.sigma))
            s.mu, s.sigma = new.mu, new.sigma
            s.games += 1
            if ranks.count(best) == len(ranks):
                s.draws += 1
            elif rank == best:
                s.wins += 1
            else:
                s.losses += 1
            s.history.append((game.id, game.when, s.ordinal))
    return sorted(standings.values(), key=lambda s: (s.provisional, -s.ordinal, s.player))
