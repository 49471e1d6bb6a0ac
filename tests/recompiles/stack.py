import torch


class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        x = self.fc(x)
        torch._dynamo.graph_break()
        return x.relu()


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList(Layer() for _ in range(4))

    def forward(self, x):
        x = x * 2
        print("once")
        for layer in self.layers:
            x = layer(x)
        return x
