"""The shared first steps of every journey (tests/journey.py) work on a phone: two players sign up, build a
roster each, one shares it by link, the other starts a battle with it and the first joins by the invitation."""

import pytest

from armies.services.packs import load_packs
from tests import journey


@pytest.fixture
def packs(transactional_db):
    load_packs()


@pytest.mark.browser
def test_two_players_reach_the_same_board(live_server, phone_context, packs):
    base = live_server.url
    a, b = journey.new_phone(phone_context), journey.new_phone(phone_context)
    journey.sign_up(a, base, "Алиса")
    journey.sign_up(b, base, "Борис")
    journey.new_roster(a, base, pack="Технолог", name="Красные", faction="Торговый Протекторат")
    journey.add_unit(a, "Ополченцы планеты Гелион")
    journey.new_roster(b, base, pack="Технолог", name="Синие", faction="Империя Полярис")
    journey.add_unit(b, "Режимная клон-пехота")
    link = journey.share_link(b)
    invitation = journey.start_battle(a, base, game="bronepekhota", mine="Красные", opponent_link=link, name="Пятница")
    journey.in_sync(a)
    journey.join(b, invitation)
    journey.same_board(a, b)
