"""What breaklint knows about torch, one home per kind of fact: the versions it supports
(`versions`), what Dynamo does measured on a torch by the generator (`generate`, its answers
shipped per version as `data/torch-<major>.<minor>.json` and read by `answers`), and the facts
checked by hand against Dynamo (`curated`). Nothing here imports torch but the generator."""
