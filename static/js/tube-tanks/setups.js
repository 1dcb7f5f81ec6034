// Setups A and B (docs/rules/tube-tanks.md), for the lobby's zone editor. The server's copy
// is app/games/tube_tanks/data/setup-*.json; tests/games/tube_tanks/test_tube_client_data.py
// checks that both say the same.

export const SETUPS = {
  A: {
    name: "Arena",
    walls: ["B8", "D5", "D11", "F8", "H4", "H12", "J8", "L5", "L11", "N8"],
    pools: ["C6", "M10"],
    gaps: [],
    green: ["E1", "H1", "K1"],
    orange: ["K15", "H15", "E15"],
  },
  B: {
    name: "Crossfire",
    walls: ["B10", "C4", "E11", "F6", "H7", "H9", "J10", "K5", "M12", "N6"],
    pools: ["H3", "H13"],
    gaps: [],
    green: ["E1", "H1", "K1"],
    orange: ["K15", "H15", "E15"],
  },
};
