package dev.tclab.stats;

import dev.tclab.runtime.ProcessStream;

/** A process that takes every input and only reports that it was closed, for tests of what runs processes. */
final class StubProcessStream implements ProcessStream {

    private final Runnable onClose;

    StubProcessStream(Runnable onClose) {
        this.onClose = onClose;
    }

    @Override
    public boolean write(byte[] input) {
        return true;
    }

    @Override
    public void resize(int columns, int rows) {}

    @Override
    public void close() {
        onClose.run();
    }
}
