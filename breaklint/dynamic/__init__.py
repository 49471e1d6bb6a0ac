"""The dynamic phase: run Dynamo on probes, collect every graph break, join with static findings.

Nothing here imports torch: torch is imported only in the worker subprocesses.
"""
