import functools
import os
import sys
import types

import torch

# VisionLanguageModel's constructor loads a Hub tokenizer through data.processors (which also
# imports the image pipeline); the model reads only its image and end-of-text token ids.
_IMAGE_TOKEN, _EOS_TOKEN = 100, 2
_processors = types.ModuleType("data.processors")
_processors.get_tokenizer = lambda *args: types.SimpleNamespace(
    image_token_id=_IMAGE_TOKEN, eos_token_id=_EOS_TOKEN
)
sys.modules.setdefault("data", types.ModuleType("data"))
sys.modules["data.processors"] = _processors
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from models.config import VLMConfig  # noqa: E402
from models.language_model import LanguageModel  # noqa: E402
from models.modality_projector import ModalityProjector  # noqa: E402
from models.vision_language_model import VisionLanguageModel  # noqa: E402
from models.vision_transformer import ViT  # noqa: E402


def _config(**overrides):
    sizes = dict(
        vit_hidden_dim=32, vit_inter_dim=64, vit_patch_size=8, vit_img_size=32, vit_n_heads=2,
        vit_n_blocks=1, lm_hidden_dim=32, lm_inter_dim=64, lm_n_heads=4, lm_n_kv_heads=2,
        lm_n_blocks=2, lm_base_vocab_size=100, extra_token_amount=4, lm_vocab_size=104,
        lm_max_position_embeddings=128, lm_max_length=64, mp_pixel_shuffle_factor=2,
        mp_image_token_length=4, vlm_load_backbone_weights=False,
    )  # fmt: skip
    return VLMConfig(**{**sizes, **overrides})


def _vlm():
    return VisionLanguageModel(_config(), load_backbone=False)


def _prompt():
    # one image: its four image tokens, then text
    input_ids = torch.tensor([[_IMAGE_TOKEN] * 4 + [5, 6, 7, 8]])
    return input_ids, torch.rand(1, 3, 32, 32)


def probe_vit_eval():
    return ViT(_config()).eval(), (torch.rand(2, 3, 32, 32),)


def probe_vit_cls_train():
    return ViT(_config(vit_cls_flag=True, vit_dropout=0.1)).train(), (torch.rand(2, 3, 32, 32),)


def probe_modality_projector():
    return ModalityProjector(_config()), (torch.randn(2, 16, 32),)


def probe_language_model_tokens():
    model = LanguageModel(_config(lm_use_tokens=True)).eval()
    return model, (torch.randint(0, 100, (2, 6)),)


def probe_language_model_masked():
    model = LanguageModel(_config()).eval()
    mask = torch.tensor([[1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1]])
    return functools.partial(model, attention_mask=mask), (torch.randn(2, 6, 32),)


def probe_language_model_generate():
    model = LanguageModel(_config(lm_use_tokens=True)).eval()
    return functools.partial(model.generate, max_new_tokens=3), (torch.randint(0, 100, (1, 5)),)


def probe_vlm_train():
    input_ids, image = _prompt()
    targets = torch.cat([torch.full((1, 4), -100), torch.tensor([[6, 7, 8, 2]])], dim=1)
    return _vlm().train(), (input_ids, image, torch.ones_like(input_ids), targets)


def probe_vlm_image_list():
    input_ids, image = _prompt()
    return _vlm().eval(), (input_ids, [[image]])


def probe_vlm_generate_greedy():
    input_ids, image = _prompt()
    generate = functools.partial(_vlm().eval().generate, max_new_tokens=3, greedy=True)
    return generate, (input_ids, image, torch.ones_like(input_ids))


def probe_vlm_generate_sampling():
    input_ids, image = _prompt()
    generate = functools.partial(_vlm().eval().generate, max_new_tokens=3, top_k=5, top_p=0.9)
    return generate, (input_ids, image)
