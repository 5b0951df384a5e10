"""A maximum-weight perfect matching (rustworkx's blossom algorithm): the one solver Swiss pairing and its
certificate call."""

from __future__ import annotations

import rustworkx as rx


def perfect_matching(nodes: int, edges: list[tuple[int, int, int]]) -> list[tuple[int, int]] | None:
    graph = rx.PyGraph()
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from(edges)
    # int, a builtin, reads each edge's weight without a Python frame per edge (a lambda cost one)
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mate) != nodes:
        return None
    return sorted((a, b) if a < b else (b, a) for a, b in mate)
