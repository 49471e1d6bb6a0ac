"""Boolean masks that travel (through `.to()`, views, `~`, `&`, into helpers) and Python
values that only look like tensors (tuples unpacked from a parameter, torch math on ints)."""

import torch
from torch import nn


def spline(inputs, widths, tail_bound=5.0):
    inside = (inputs >= -tail_bound) & (inputs <= tail_bound)
    outside = ~inside
    outputs = torch.zeros_like(inputs)
    outputs[outside] = inputs[outside]  # BREAK BL302
    outputs[inside] = widths[inside] * 2  # BREAK BL302
    return outputs


class Spline(nn.Module):
    def forward(self, x, widths):
        first, second = torch.chunk(x, 2, dim=-1)
        return first.sum() + spline(second, widths).sum()


class Routed(nn.Module):
    def forward(self, hidden, token_mask: torch.BoolTensor):
        token_mask = token_mask.to(hidden.device)
        hidden = hidden.masked_scatter(
            token_mask.unsqueeze(-1),
            hidden[token_mask] * 2,  # BREAK BL302
        )
        positions = token_mask.to(torch.long)  # a cast: no longer a mask
        return hidden[~token_mask] + hidden[positions].sum()  # BREAK BL302


class Unpadded(nn.Module):
    # Rows of an input nothing annotates, each indexed with a test of itself: only an array is.
    def forward(self, padded):
        rows = [row[row != -1] for row in padded]  # BREAK BL302
        return torch.cat(rows)


class Windows(nn.Module):
    def forward(self, x, dims):
        height, width = dims
        batch, _, channels = x.shape
        return x.view(batch, height, width, channels)


def chunked(x, window: int = 2):
    chunks = torch.div(x.size(1), window, rounding_mode="trunc") - 1
    return x.new_zeros((x.size(0), chunks + 1, window))


def levels(value: torch.Tensor, shapes: torch.Tensor | list[tuple]):
    pieces = []
    for level, (height, width) in enumerate(shapes):
        pieces.append(value[level].reshape(height, width))
    return pieces


compiled_chunked = torch.compile(chunked)
compiled_levels = torch.compile(levels)


def probe_mask_into_a_helper():
    return Spline(), (torch.randn(4, 6) * 6, torch.randn(4, 3))


def probe_mask_moved_to_a_device():
    return Routed(), (torch.randn(2, 5, 3), torch.rand(2, 5) > 0.5)


def probe_rows_tested_against_themselves():
    return Unpadded(), (torch.tensor([[3, 4, -1], [5, -1, -1]]),)


def probe_sizes_unpacked_from_a_parameter():
    return Windows(), (torch.randn(2, 6, 3), (2, 3))


def probe_torch_math_on_sizes():
    return chunked, (torch.randn(2, 8),)


def probe_sizes_iterated_from_a_parameter():
    return levels, (torch.randn(2, 6), [(2, 3), (3, 2)])


def explained(residual, total):
    # `torch.isclose` gives a mask, and so does its negation.
    varies = ~torch.isclose(total, torch.zeros_like(total), atol=1e-4)
    scores = torch.ones_like(residual)
    scores[varies] = 1 - residual[varies] / total[varies]  # BREAK BL302
    return scores


def bumped(x):
    keep = x > 0
    x[keep] += 1  # BREAK BL302
    return x * 2


def windows(x, window):
    chunks = torch.div(x.size(1), window * 2, rounding_mode="trunc")
    return x.view(x.size(0), chunks, window * 2)


def windowed(x):
    return windows(x, 2)


def upsampled(x, height):
    return nn.functional.interpolate(x, size=(int(height * 2), 4))


compiled_bumped = torch.compile(bumped)
compiled_windowed = torch.compile(windowed)
compiled_upsampled = torch.compile(upsampled)
compiled_explained = torch.compile(explained)


def probe_read_through_a_mask_in_place():
    return bumped, (torch.randn(4, 3),)


def probe_torch_math_on_a_helper_size():
    return windowed, (torch.randn(2, 8),)


def probe_python_size_converted():
    return upsampled, (torch.randn(1, 1, 2, 2), 2)


def probe_mask_of_a_closeness_test():
    return explained, (torch.rand(6), torch.tensor([0.0, 1.0, 2.0, 0.0, 3.0, 1.0]))
