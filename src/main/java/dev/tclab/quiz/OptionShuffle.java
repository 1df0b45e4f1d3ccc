package dev.tclab.quiz;

import dev.tclab.learner.SecretStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Each learner's order of each quiz's options, so the right answer sits at no position a class could learn or pass
 * on ("it's always the first"), and the same order on every reload. Until the learner answers a quiz, its order is
 * derived from a key the server keeps (an HMAC of learner, lesson and quiz), so showing a page writes nothing: a
 * visitor without a cookie is a new learner on every request. The order a learner answered in is kept
 * ({@link QuizOrders}) and is theirs from then on, whatever the derivation would say.
 */
@ApplicationScoped
public class OptionShuffle {

    static final String KEY_NAME = "quiz-order-key";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final QuizOrders kept;
    private final SecretStore secrets;
    private volatile byte[] key;

    public OptionShuffle(QuizOrders kept, SecretStore secrets) {
        this.kept = kept;
        this.secrets = secrets;
    }

    /** The learner's order of each quiz of the lesson (reads the kept orders once). */
    public Function<Quiz, OptionOrder> forLearner(String learner, String lesson) {
        Map<String, OptionOrder> answeredIn = kept.orders(learner, lesson);
        return quiz -> {
            OptionOrder order = answeredIn.get(quiz.id());
            return order != null && order.fits(quiz) ? order : derived(learner, lesson, quiz);
        };
    }

    /** Keeps the order the learner answered in (a second answer in the same order keeps it again, unchanged). */
    public void answeredIn(String learner, String lesson, String quizId, OptionOrder order) {
        kept.keep(learner, lesson, quizId, order);
    }

    private OptionOrder derived(String learner, String lesson, Quiz quiz) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(), "HmacSHA256"));
            byte[] digest = mac.doFinal((learner + '\0' + lesson + '\0' + quiz.id()).getBytes(StandardCharsets.UTF_8));
            return OptionOrder.shuffled(
                    quiz.options().size(), ByteBuffer.wrap(digest).getLong());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Read on first use, not at start: a page or answer reads it on a worker thread, never on the event loop. */
    private byte[] key() {
        byte[] k = key;
        if (k == null) {
            k = Base64.getDecoder().decode(secrets.getOrCreate(KEY_NAME, () -> {
                byte[] bytes = new byte[32];
                RANDOM.nextBytes(bytes);
                return Base64.getEncoder().encodeToString(bytes);
            }));
            key = k;
        }
        return k;
    }
}
