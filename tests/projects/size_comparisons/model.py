"""Parameters of compiled functions compared with sizes (`x.shape[1] < max_length`,
`len(points) > n`) are counts: no branch on a tensor's value, unlike a comparison with a
tensor's sum."""
