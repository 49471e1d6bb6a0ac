"""`breaklint server`: the Language Server Protocol over stdio (pygls, the `lsp` extra)."""
