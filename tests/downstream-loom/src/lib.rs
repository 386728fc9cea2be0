//! Nothing: the models are in tests/.
