import importlib
import os
import sys
import types

import torch

# Two imports serve features the models below never use: matplotlib (AutoCorrelation's plots)
# and reformer_pytorch (only the Reformer model's attention).
sys.modules.setdefault("matplotlib", types.ModuleType("matplotlib"))
sys.modules.setdefault("matplotlib.pyplot", types.ModuleType("matplotlib.pyplot"))
_reformer = types.ModuleType("reformer_pytorch")
_reformer.LSHSelfAttention = None
sys.modules.setdefault("reformer_pytorch", _reformer)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SEQ, LABEL, PRED, CHANNELS, MARKS = 16, 8, 8, 3, 4  # marks: the "timeF" features of freq "h"


def _configs(task="long_term_forecast", **overrides):
    """The command line's defaults (run.py) at tiny sizes."""
    configs = dict(
        task_name=task,
        seq_len=SEQ,
        label_len=LABEL,
        pred_len=PRED,
        seasonal_patterns="Monthly",
        enc_in=CHANNELS,
        dec_in=CHANNELS,
        c_out=CHANNELS,
        d_model=16,
        n_heads=2,
        e_layers=1,
        d_layers=1,
        d_ff=32,
        moving_avg=5,
        factor=1,
        distil=True,
        dropout=0.1,
        embed="timeF",
        freq="h",
        activation="gelu",
        top_k=2,
        num_kernels=2,
        channel_independence=1,
        decomp_method="moving_avg",
        use_norm=1,
        down_sampling_layers=1,
        down_sampling_window=2,
        down_sampling_method="avg",
        seg_len=8,
        expand=2,
        d_conv=4,
        num_class=4,
        patch_len=4,
        stride=2,
        node_dim=4,
        gcn_depth=1,
        gcn_dropout=0.1,
        propalpha=0.3,
        conv_channel=8,
        skip_channel=8,
        individual=False,
        alpha=0.1,
        top_p=0.5,
        pos=1,
        mask_rate=0.25,
        p_hidden_dims=[8, 8],
        p_hidden_layers=2,
        output_attention=False,
    )
    configs.update(overrides)
    return types.SimpleNamespace(**configs)


def _forecast(name, task="long_term_forecast", seq_len=SEQ, channels=CHANNELS, **overrides):
    configs = _configs(task, seq_len=seq_len, enc_in=channels, dec_in=channels, c_out=channels)
    vars(configs).update(overrides)
    model = importlib.import_module(f"models.{name}").Model(configs)
    inputs = (
        torch.randn(2, seq_len, channels),
        torch.randn(2, seq_len, MARKS),
        torch.randn(2, LABEL + configs.pred_len, channels),
        torch.randn(2, LABEL + configs.pred_len, MARKS),
    )
    return model.eval(), inputs


def probe_autoformer():
    return _forecast("Autoformer")


def probe_dlinear():
    return _forecast("DLinear")


def probe_etsformer():
    return _forecast("ETSformer", e_layers=2, d_layers=2)


def probe_fedformer():
    return _forecast("FEDformer")


def probe_informer():
    return _forecast("Informer")


def probe_itransformer():
    return _forecast("iTransformer")


def probe_patchtst():
    return _forecast("PatchTST")


def probe_timesnet():
    return _forecast("TimesNet")


def probe_timemixer():
    return _forecast("TimeMixer")


def probe_crossformer():
    return _forecast("Crossformer")


def probe_nonstationary_transformer():
    return _forecast("Nonstationary_Transformer")


def probe_segrnn():
    return _forecast("SegRNN")


def probe_tsmixer():
    return _forecast("TSMixer")


def probe_tide():
    return _forecast("TiDE")


def probe_lightts():
    return _forecast("LightTS")


def probe_frets():
    return _forecast("FreTS")


def probe_scinet():
    return _forecast("SCINet")


def probe_transformer():
    return _forecast("Transformer")


def probe_timexer():
    return _forecast("TimeXer", features="M")


def probe_film():
    return _forecast("FiLM")


def probe_multipatchformer():
    return _forecast("MultiPatchFormer", seq_len=96)


def probe_pattn():
    return _forecast("PAttn")


def probe_kanad():
    return _forecast("KANAD", "anomaly_detection")


def probe_timefilter():
    return _forecast("TimeFilter")


def probe_msgnet():
    return _forecast("MSGNet")


def probe_mamba_simple():
    return _forecast("MambaSimple")


def probe_temporal_fusion_transformer():
    return _forecast("TemporalFusionTransformer", channels=7, data="ETTh1")


def probe_timesnet_imputation():
    model, (x, mark, dec, dec_mark) = _forecast("TimesNet", "imputation", pred_len=0)
    return model, (x, mark, dec, dec_mark, torch.rand(2, SEQ, CHANNELS) > 0.25)


def probe_autoformer_classification():
    model, (x, _, dec, dec_mark) = _forecast("Autoformer", "classification")
    return model, (x, torch.ones(2, SEQ), dec, dec_mark)


def probe_informer_anomaly_detection():
    return _forecast("Informer", "anomaly_detection")
