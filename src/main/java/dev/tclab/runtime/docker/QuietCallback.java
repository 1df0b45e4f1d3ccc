package dev.tclab.runtime.docker;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import org.jboss.logging.Logger;

/**
 * A docker-java stream callback whose failure is one log line at the level it deserves. docker-java's own
 * {@code onError} logs every failure at ERROR with a stack trace, yet a stream whose container is being removed or
 * is gone is what a normal Stop does to it ("Container … is not running: Removal In Progress", 409; or 404): that
 * is DEBUG. Any other failure is a WARN line. As in docker-java, the failure ends the stream and
 * {@code awaitCompletion} throws it.
 */
abstract class QuietCallback<T> extends ResultCallback.Adapter<T> {

    private static final Logger LOG = Logger.getLogger(QuietCallback.class);

    private volatile Throwable failure;
    private volatile boolean closed;

    @Override
    public void onError(Throwable error) {
        if (closed) {
            // Closed on purpose first (a terminal the learner left, a finished command): what breaks then is no news.
            return;
        }
        if (failure == null) {
            failure = error;
        }
        if (error instanceof ConflictException || error instanceof NotFoundException) {
            LOG.debugf("a Docker stream ended with its container: %s", firstLine(error));
        } else {
            LOG.warnf("a Docker stream broke: %s: %s", error.getClass().getSimpleName(), firstLine(error));
        }
        try {
            close();
        } catch (IOException e) {
            LOG.debugf("closing a broken Docker stream failed: %s", e.getMessage());
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        super.close();
    }

    @Override
    protected void throwFirstError() {
        Throwable error = failure;
        if (error instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (error instanceof Error fatal) {
            throw fatal;
        }
        if (error != null) {
            throw new IllegalStateException("the Docker stream broke: " + error.getMessage(), error);
        }
    }

    private static String firstLine(Throwable error) {
        String message = String.valueOf(error.getMessage()).strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
