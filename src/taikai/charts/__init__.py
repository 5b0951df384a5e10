"""Server-side SVG pictures as plain strings: geometry and scaling only, no Django, no I/O."""
