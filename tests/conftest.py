"""Shared pytest configuration. The test kits (a real referee server, conformance checks,
positions, misbehaving bots...) are in tests/kits/. Long soak/fuzz runs honour STANDOFF_LONG=1;
CI runs bounded versions. The tiers (the fast ``-m "not slow"`` and the full suite) and the
markers of heavy extras are in tests/tiers.py."""

import io
import signal

import pytest
import tiers


def pytest_sessionstart(session):
    """A compiled engine module older than its source (``standoff accelerate``, then an edit)
    would be tested instead of the source: stop at once, as the command line does."""
    from standoff.server.accelerate import AccelerateError, check_fresh

    try:
        check_fresh()
    except AccelerateError as exc:
        pytest.exit(f"standoff: error: {exc}", returncode=2)
    # A suite started in the background of a non-interactive shell (``cmd &``) inherits SIGINT
    # ignored, and so would every process it starts: the tests that press Ctrl-C on a command
    # (a match, a ladder, an SDK bot) would see it ignored. Python's own handler back here means
    # the children start with SIGINT at its default, as from a terminal.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by these markers
def pytest_collection_modifyitems(config, items):
    """Each test gets its markers from tests/tiers.py: ``slow`` and what it needs."""
    for item in items:
        path = item.path.relative_to(config.rootpath).as_posix()
        name = getattr(item, "originalname", item.name)
        for marker in sorted(tiers.markers(path, name, set(getattr(item, "fixturenames", ())))):
            item.add_marker(marker)


@pytest.fixture(scope="session", autouse=True)
def _quiet_logs():
    """Server logs go to a buffer during tests (warnings and up), not to the terminal."""
    from standoff.server.logs import configure_logging

    configure_logging(json=True, level="warning", stream=io.StringIO())
