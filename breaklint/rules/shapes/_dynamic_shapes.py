"""Shared wording of the dynamic-output-shape family (BL301-BL303)."""

WHY = """
The size of the result depends on the values in the input, which fake tensors do not have.
By default Dynamo cannot give the output a shape, so it breaks the graph (GB0036) and runs the
operation eagerly; the next graph then also sees a new, data-dependent size.
"""
HINT = (
    "keep a fixed shape (`torch.where(mask, x, 0)`, `masked_fill`, weighting by the mask), or "
    "set torch._dynamo.config.capture_dynamic_output_shape_ops = True"
)
