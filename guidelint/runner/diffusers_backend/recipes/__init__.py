"""The generic builder's recipe tables, one module per area; tiny_table.py merges them.

`parts` holds `Dim`, `Recipe` and the configs several areas share. Each area module
(one per group of families; `AREAS` in tiny_table.py) holds the same six tables,
possibly empty: `RECIPES`, `VARIANTS`, `TOKENIZER_OF_ENCODER`, `HOME_PIPELINES`,
`NOT_YET` and `PIPELINE_ARGUMENTS`.
"""
