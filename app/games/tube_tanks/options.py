"""The lobby's options: the setup (A, B or a custom zone both players agree on), each advanced
rule on its own (all on by default, as the designer recommends), wrecks (K13) and missions
(K14)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.games.tube_tanks.zone import CENTRE, SETUP_NAMES, SETUPS, Zone

RULE_FLAGS = (
    "collateral_damage",
    "floor_destruction",
    "wall_destruction",
    "blast",
    "stun",
    "triangulation",
    "energy_bolts",
    "target_anything",
    "repair",
    "collision",
    "wrecks",
    "mission_1",
    "mission_2",
    "mission_3",
)


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    setup: Literal["A", "B", "custom"] = Field(
        "A",
        description="Zone layout: A 'Arena', B 'Crossfire', or a custom zone the host draws and "
        "the other player accepts.",
        json_schema_extra={
            "x-labels": {
                **{k: f"{k}: {name}" for k, name in SETUP_NAMES.items()},
                "custom": "Custom zone (you draw it)",
            }
        },
    )
    zone: Zone | None = Field(
        None, description="The custom zone (walls, pools, gaps, tanks); only with setup 'custom'."
    )
    collateral_damage: bool = Field(
        True, description="Collateral Damage: a miss lands elsewhere, found with the compass."
    )
    floor_destruction: bool = Field(
        True, description="Floor Destruction: a rocket hitting an empty space makes a gap."
    )
    wall_destruction: bool = Field(True, description="Wall Destruction: a rocket removes a wall.")
    blast: bool = Field(
        True,
        description="Blast: a 6-damage hit or a destroyed floor or wall deals 1 damage to every "
        "adjacent unit.",
    )
    stun: bool = Field(
        True, description="Stun: a hit for 4+ or blast damage makes the unit skip its next turn."
    )
    triangulation: bool = Field(
        True, description="Triangulation: measure from your targeting token for 2 extra dice."
    )
    energy_bolts: bool = Field(
        True, description="Energy Bolts: shots fly in a straight line; the first object stops them."
    )
    target_anything: bool = Field(
        True, description="Target Anything: you may shoot an empty space or a wall."
    )
    repair: bool = Field(
        True, description="Repair: a whole turn next to an Energy Pool repairs 2 damage."
    )
    collision: bool = Field(True, description="Collision: tanks may ram other tanks.")
    wrecks: bool = Field(
        False, description="Keep destroyed units on the Zone as wrecks (obstacles)."
    )
    mission_1: bool = Field(
        False,
        description="Mission 1: an Energy Pool on H8; one unit repairing there 3 activations in "
        "a row wins.",
    )
    mission_2: bool = Field(
        False, description="Mission 2: a unit of yours reaching the enemy home row wins."
    )
    mission_3: bool = Field(
        False, description="Mission 3: the first player to destroy 5 walls wins."
    )

    @model_validator(mode="after")
    def _zone_matches_setup(self) -> Options:
        if self.setup == "custom":
            if self.zone is None:
                # The lobby's generic form switches to "custom" without a zone: start the editor
                # from setup A rather than refusing the switch.
                self.zone = SETUPS["A"].model_copy(deep=True)
        elif self.zone is not None:
            # Switching a drawn zone back to a preset (the form keeps the zone): the preset wins.
            self.zone = None
        zone = self.layout()
        if self.mission_1 and CENTRE not in zone.pools:
            taken = {*zone.walls, *zone.gaps, *zone.green, *zone.orange}
            if CENTRE in taken:
                raise ValueError(f"Mission 1 puts an Energy Pool on {CENTRE}: keep it free")
        return self

    def layout(self) -> Zone:
        """The zone this match starts from."""
        if self.setup == "custom":
            assert self.zone is not None
            return self.zone
        return SETUPS[self.setup]

    def rules(self) -> dict[str, bool]:
        return {flag: bool(getattr(self, flag)) for flag in RULE_FLAGS}
