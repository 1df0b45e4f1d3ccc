package dev.tclab.lab;

/** The server already runs its configured maximum of labs, and its start queue is full too. */
public class ServerFullException extends Exception {

    public ServerFullException(int max, int queueLimit) {
        super("The server is full: " + max + " labs are running, which is its limit, and " + queueLimit
                + " more are waiting to start, which is the queue's limit. Try again in a few minutes, "
                + "or ask the host to stop unused labs or raise tclab.lab.max-running or tclab.lab.queue-size.");
    }
}
