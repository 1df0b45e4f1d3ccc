package dev.tclab.http;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The JSON body of every API error: what went wrong and, where it helps, the individual problems.
 *
 * @param error    one sentence for a person
 * @param problems details (e.g. each validation problem with file and line); may be empty
 */
public record ApiError(String error, List<String> problems) {

    /** A backstop for a sentence that quotes input without {@link Quote}: no error body grows with a request. */
    static final int MAX_ERROR_CHARS = 2000;

    public ApiError {
        if (error != null && error.length() > MAX_ERROR_CHARS) {
            error = error.substring(0, MAX_ERROR_CHARS) + "…";
        }
    }

    public static Response response(Response.Status status, String error) {
        return response(status, error, List.of());
    }

    public static Response response(Response.Status status, String error, List<String> problems) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON)
                .entity(new ApiError(error, problems))
                .build();
    }
}
