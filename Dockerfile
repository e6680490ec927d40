# The attnviz dashboard in one image: Python slim, the CPU build of torch, the shipped models
# baked in, served by a user without root. docs/deploy.md says how to build, run and scale it.
#
#   docker build -t attnviz .
#   docker run --rm -p 8501:8501 attnviz        # then open http://localhost:8501
ARG PYTHON=3.11

# ---- build: the virtual environment, with the compiler eflomal needs (never shipped) ----
FROM python:${PYTHON}-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# torch first, from PyTorch's CPU index: PyPI's Linux wheel pulls in CUDA (gigabytes) that a CPU
# server never uses. requirements.txt then finds torch==2.13.0 satisfied (2.13.0+cpu).
# TORCH_INDEX: another index with the same wheel, for a builder that cannot reach PyTorch's
# (deploy/test_image.sh serves one from a local wheel).
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
RUN pip install --index-url "$TORCH_INDEX" torch==2.13.0
COPY requirements.txt .
RUN pip install -r requirements.txt \
    && python -c "import torch; assert torch.version.cuda is None, torch.version.cuda"

# ---- run ----
FROM python:${PYTHON}-slim
# libgomp1: OpenMP, which eflomal's compiled aligner links against.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 attnviz
COPY --from=build /opt/venv /opt/venv
# uid 1000, as a Hugging Face Space runs it; no file of the app is writable by it.
USER attnviz
WORKDIR /home/attnviz/app
COPY .streamlit/ .streamlit/
COPY checkpoints/ checkpoints/
COPY attnviz/ attnviz/
COPY attnviz_ui/ attnviz_ui/
COPY dashboard.py ./
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ATTNVIZ_CHECKPOINTS=/home/attnviz/app/checkpoints \
    STREAMLIT_SERVER_PORT=8501 \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_SERVER_FILE_WATCHER_TYPE=none \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"]
CMD ["streamlit", "run", "dashboard.py"]
