package dev.tclab.grading.selftest;

import dev.tclab.config.TclabConfig;
import dev.tclab.http.ApiError;
import dev.tclab.http.Quote;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.runtime.EngineUnavailableException;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import org.jboss.logging.Logger;

/** Lesson self-tests for authors, not learners: it needs the author token, since a run takes minutes of lab time. */
@Path("/api/lessons/{slug}/selftest")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class SelfTestResource {

    private static final Logger LOG = Logger.getLogger(SelfTestResource.class);
    private static final int MAX_RUNS = 10;

    private final LessonSelfTest selfTest;
    private final LessonCatalog catalog;
    private final Optional<String> authorToken;

    public SelfTestResource(LessonSelfTest selfTest, LessonCatalog catalog, TclabConfig config) {
        this.selfTest = selfTest;
        this.catalog = catalog;
        this.authorToken = config.authorToken();
    }

    @POST
    public Response run(
            @PathParam("slug") String slug,
            @QueryParam("runs") Integer runs,
            @HeaderParam("Authorization") String authorization)
            throws EngineUnavailableException {
        if (authorToken.isEmpty()) {
            return ApiError.response(
                    Response.Status.FORBIDDEN,
                    "Self-tests are for lesson authors and are off on this "
                            + "server: set tclab.author-token, then send it as 'Authorization: Bearer <token>'.");
        }
        if (!matches(authorization, authorToken.get())) {
            return ApiError.response(
                    Response.Status.FORBIDDEN,
                    "Self-tests need the author token: send 'Authorization: Bearer <tclab.author-token>'.");
        }
        int count = runs == null ? 1 : runs;
        if (count < 1 || count > MAX_RUNS) {
            return ApiError.response(Response.Status.BAD_REQUEST, "runs must be between 1 and " + MAX_RUNS + ".");
        }
        Optional<Lesson> lesson = catalog.lesson(slug);
        if (lesson.isEmpty()) {
            return ApiError.response(Response.Status.NOT_FOUND, "There is no lesson " + Quote.of(slug) + ".");
        }
        return Response.ok(selfTest.run(lesson.get(), count, LOG::info)).build();
    }

    private static boolean matches(String authorization, String token) {
        String expected = "Bearer " + token;
        return authorization != null
                && MessageDigest.isEqual(
                        authorization.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }
}
