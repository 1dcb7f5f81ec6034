"""Rules pages: each game explained at /games/{id}/rules, from its Markdown source in
docs/rules/, illustrated by diagrams that the rules module plays (docs/rules/README.md)."""
