from .scale import ScaleKernel
