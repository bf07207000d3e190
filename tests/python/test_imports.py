"""The package's modules import in layers: no module imports another that imports it back
(directly or around a circle), and no module imports a lockstep module inside a function (the
way circles used to be broken)."""
import ast
import os


def local_imports(path):
    """(module-level lockstep modules imported, lockstep modules imported inside functions)."""
    tree = ast.parse(open(path).read())
    top, inner = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
            inside = any(isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef))
                         for p in ancestors(tree, node))
            (inner if inside else top).update(n.split(".")[0] for n in names)
    return top, inner


def ancestors(tree, target):
    path = []

    def visit(node, stack):
        if node is target:
            path.extend(stack)
            return True
        return any(visit(c, stack + [node]) for c in ast.iter_child_nodes(node))

    visit(tree, [])
    return path


def test_no_import_cycles_and_no_imports_in_functions(root):
    folder = os.path.join(root, "python", "lockstep")  # the sources (a build tree keeps old ones)
    graph = {}
    for name in os.listdir(folder):
        if name.endswith(".py") and name != "__init__.py":
            top, inner = local_imports(os.path.join(folder, name))
            assert not inner, f"{name} imports {sorted(inner)} inside a function"
            graph[name[:-3]] = top - {"_lockstep"}
    state = {}

    def visit(m, stack):
        state[m] = "open"
        for n in graph.get(m, ()):
            assert state.get(n) != "open", f"import cycle: {' -> '.join(stack + [m, n])}"
            if n not in state:
                visit(n, stack + [m])
        state[m] = "done"

    for m in graph:
        if m not in state:
            visit(m, [])
    assert "_device_ops" not in graph  # its parts live with their domains now
