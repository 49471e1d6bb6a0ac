from torch import nn

from messages import kinds
from messages.kinds import Message, Note, Record
from messages.postponed import Late


class Sender(nn.Module):
    def forward(self, x):
        record = Record(value=x * 2)
        message = Message(value=record["value"] + 1, name="sent")
        tagged = kinds.Tagged(value=message["value"], tag="t")
        return tagged["value"] * 3


class Noter(nn.Module):
    def forward(self, x):
        late = Late(value=x - 1)
        note = Note(value=late["value"], note="n")
        return note["value"] * 2
