def gathered(values, offsets):
    total = values.new_zeros(())
    for i in range(offsets.shape[0] - 1):
        if values.dim() == 3:
            first = offsets[0, i].item()
        elif values.dim() == 2:
            first = offsets[i].item()
        else:
            first = 0
        if values[first].sum() > 0:
            total = total + values[first].sum()
    return total
