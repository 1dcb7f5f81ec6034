"""Tank Skirmish (tube edition), game id `tube-tanks`: its rulebook, rulings K1-K14.

Modules, each with one job: `zone` (cells, layouts, setups A/B, compass), `options` (lobby
options), `moves`, `board` (what stands where), `movement`, `ballistics` (dice, collateral,
bolt line), `effects` (damage, Blast, Stun, destruction), `combat` (a shot), `missions`
(victory), `game` (the `TubeTanks` rules module, registered).
"""
