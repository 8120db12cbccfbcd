"""The Battle Line engine behaves exactly as it did when these digests were taken (before the
speed work of issue 22): same decisions, options, state fields, views, copies, determinizations,
claim explanations, timeout defaults and outcomes over 5 random games of each ruleset/option set
of behaviour_digest.CONFIGS. A change that is meant to alter behaviour must say so and re-take
them (``python tests/schotten_totten/behaviour_digest.py --games 5``)."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location(
    "st_behaviour_digest", pathlib.Path(__file__).with_name("behaviour_digest.py")
)
behaviour_digest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(behaviour_digest)

EXPECTED = {
    line.split("  ", 1)[1]: line.split("  ", 1)[0]
    for line in """\
d919c4ae30350d9d0c7ba646fc7205581e69539d456e26b09c7ed36e628ca37d  battle_line {}
d5c69a0f6e0cd1690d349e664cccdf08bca511d229967bc6200af447f18ef8c5  battle_line {"tactics": "off"}
6cbe92b1999f8a6eb9f12d75b85c50c34b988a05cc53a336bc900af32147aaa0  battle_line {"claim_timing": "start_of_turn"}
62a77412ea5a81111fd14eefbd765bf0ee8679132a239f9074e98a2cfb267e24  battle_line {"claim_timing": "end_of_turn", "stalemate": "flags"}
36af465aba86a3100905f1b3fe5029edf771a91e1a66a87b981e8a08d490ee99  battle_line {"decision_cap": "150", "first": "p2"}
ad723e4f888a2c3bec82389a08b4ff8827261d7a6672588f6a5b12a13bc4e5cc  classic {}
5c0d57edf109fc47ab1727b75b226e2f004b6c22e38b3be6822a9c9281749099  classic {"claim_timing": "after_play", "stalemate": "flags"}
1bb7d8448d1f040010992e49e09d3afc7101f509ad527fd73cf1e40813a39ddf  three_player {}
59dea43dd30178dd5287576c185a43b885a84dbc358e5193213b32c03f219bcb  three_player {"claim_timing": "end_of_turn", "first": "p3"}
""".splitlines()
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_digest_unchanged(name, _digests={}):
    if not _digests:
        _digests.update((n, h) for n, h in behaviour_digest.digests(5))
    assert _digests[name] == EXPECTED[name]
