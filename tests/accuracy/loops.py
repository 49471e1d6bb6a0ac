"""A loop's iterable is evaluated before the loop starts: a break there splits the graph and
Dynamo resumes at the loop head, without skipping the frame."""

import torch


def summed_values(x):
    total = x
    for value in x.tolist():  # BREAK BL103
        total = total + value
    print("summed")  # BREAK BL401
    return total


def rows_of_counts(x, counts):
    out = x
    for _ in range(2):
        for step in range(int(counts.sum())):  # SKIP BL102 BL202
            out = out + step
    return out


compiled_summed_values = torch.compile(summed_values)
compiled_rows_of_counts = torch.compile(rows_of_counts)


def probe_break_in_the_iterable():
    return summed_values, (torch.randn(3),)


def probe_break_in_an_inner_iterable():
    return rows_of_counts, (torch.randn(3), torch.ones(2))
