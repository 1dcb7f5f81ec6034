"""The oldest generation is collected after sockets close (app/realtime/collector.py), but
never for more than a twentieth of the process's time, however many close at once."""

from __future__ import annotations

from app.realtime.collector import SPACING, OldGenerationCollector


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_slow_collection_spaces_out_the_next_ones() -> None:
    clock = FakeClock()
    collections: list[float] = []

    def two_second_collection() -> None:
        collections.append(clock.now)
        clock.now += 2.0

    collector = OldGenerationCollector(collect=two_second_collection, clock=clock)
    collector.configure(every=10, min_interval=1.0)
    for _ in range(10):
        collector.connection_closed()
    assert collections == [100.0]
    # Thousands close at once: no second collection until SPACING times its length passed.
    for _ in range(5_000):
        collector.connection_closed()
        clock.now += 0.001
    assert collections == [100.0]
    clock.now = 100.0 + SPACING * 2.0
    collector.connection_closed()
    assert collections == [100.0, 100.0 + SPACING * 2.0]


def test_quick_collections_keep_the_minimum_interval_and_the_count() -> None:
    clock = FakeClock()
    collections: list[float] = []
    collector = OldGenerationCollector(collect=lambda: collections.append(clock.now), clock=clock)
    collector.configure(every=3, min_interval=1.0)
    for _ in range(3):
        collector.connection_closed()
    clock.now += 0.5
    for _ in range(3):
        collector.connection_closed()
    assert collections == [100.0]  # too soon after the last
    clock.now += 0.5
    collector.connection_closed()
    assert collections == [100.0, 101.0]
    for _ in range(2):
        clock.now += 5
        collector.connection_closed()
    assert collections == [100.0, 101.0]  # two closed sockets of the three it waits for


def test_never_when_switched_off() -> None:
    collections: list[int] = []
    collector = OldGenerationCollector(collect=lambda: collections.append(1))
    collector.configure(every=0, min_interval=0.0)
    for _ in range(100):
        collector.connection_closed()
    assert collections == []
