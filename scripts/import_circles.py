"""Fails on any import circle between modules of taikai, naming each circle and the imports that close it.

Run by ``make check``. Every import counts: at the top, inside a function, under TYPE_CHECKING. A circle is a
set of modules each reachable from the others (a strongly connected component of grimp's import graph, the
graph import-linter reads).
"""

from __future__ import annotations

import sys

import grimp


def circles(package: str = "taikai") -> list[list[str]]:
    """Each set of two or more modules that import each other, directly or through others, sorted."""
    graph = grimp.build_graph(package)
    imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in imports:
        if root in order:
            continue
        # Tarjan's algorithm, iteratively: an event's import chains are deeper than Python's recursion likes.
        work = [(root, iter(imports[root]))]
        order[root] = low[root] = len(order)
        stack.append(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    work.append((child, iter(imports[child])))
                elif child in stack:
                    low[node] = min(low[node], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def main() -> int:
    graph = grimp.build_graph("taikai")
    found = circles()
    for component in found:
        print(f"import circle: {' <-> '.join(component)}")
        for importer in component:
            for imported in component:
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    print(f"  {importer}:{detail['line_number']} {detail['line_contents']}")
    if found:
        print(f"{len(found)} import circle(s) in taikai: move the shared piece into a module both import")
        return 1
    print("no import circles in taikai")
    return 0


if __name__ == "__main__":
    sys.exit(main())
