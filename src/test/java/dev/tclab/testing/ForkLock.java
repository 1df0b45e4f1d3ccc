package dev.tclab.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A lock on a file shared by the forks of one build, exclusive or shared: the operating system's record lock (any
 * number of shared holders at once, or one exclusive holder alone), held by the process, so a fork that dies releases
 * it. Locks are per process: one JVM holds at most one lock on a file at a time.
 */
final class ForkLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private ForkLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock file {@code name} of this build, which its forks share ({@code test-fork-locks}, set by the pom). */
    static Path ofThisBuild(String name) {
        return Path.of(System.getProperty("test-fork-locks", "target/fork-locks"))
                .resolve(name);
    }

    /** Blocks until this process holds {@code file}'s lock, shared or exclusive. */
    static ForkLock take(Path file, boolean shared) throws IOException {
        Files.createDirectories(file.getParent());
        FileChannel channel = FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                // A shared lock needs a channel open for reading, an exclusive one for writing.
                StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            return new ForkLock(channel, channel.lock(0, Long.MAX_VALUE, shared));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }

    /**
     * A fork in a test of this lock: prints {@code taking}, takes the lock on {@code args[0]} (shared when
     * {@code args[1]} is {@code shared}), prints {@code held}, and keeps it until its standard input ends.
     */
    public static void main(String[] args) throws IOException {
        System.out.println("taking");
        System.out.flush();
        try (ForkLock held = take(Path.of(args[0]), "shared".equals(args[1]))) {
            System.out.println("held");
            System.out.flush();
            System.in.transferTo(OutputStream.nullOutputStream());
        }
    }
}
