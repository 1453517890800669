"""The GPUs: NVML for what is used (watch-python, gpu-fill), the CUDA driver for taking memory."""
