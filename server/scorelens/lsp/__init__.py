"""The ScoreLens language server (pygls 2)."""
