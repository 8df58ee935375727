"""The arcade shell: windows, input, drawing and sound. The only layer that imports arcade."""
