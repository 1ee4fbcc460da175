"""The generic builder's recipe tables, one module per area; tiny_table.py merges them.

`parts` holds `Dim`, `Recipe` and the configs several areas share. Each area module
(one per group of families; `AREAS` in tiny_table.py) holds any of the same tables
(one it leaves out is empty): `RECIPES`, `VARIANTS`, `TOKENIZER_OF_ENCODER`,
`HOME_PIPELINES`, `NOT_YET`, `PIPELINE_ARGUMENTS`, `KEPT_OPTIONAL`, `LEFT_OUT`,
`CHECKPOINT_LIBRARY`, `EMPTY_PARAMETERS` and `SHIPPED`.
"""
