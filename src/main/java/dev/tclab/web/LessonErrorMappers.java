package dev.tclab.web;

import dev.tclab.http.ApiError;
import dev.tclab.lesson.LessonBrokenException;
import dev.tclab.lesson.LessonNotFoundException;
import dev.tclab.quiz.QuizGrader;
import dev.tclab.yaml.FileProblem;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** JSON errors for the lesson and quiz API. */
public class LessonErrorMappers {

    @ServerExceptionMapper
    public Response lessonNotFound(LessonNotFoundException e) {
        return ApiError.response(Response.Status.NOT_FOUND, e.getMessage());
    }

    @ServerExceptionMapper
    public Response lessonBroken(LessonBrokenException e) {
        return ApiError.response(
                Response.Status.CONFLICT,
                e.getMessage(),
                e.problems().stream().map(FileProblem::toString).toList());
    }

    @ServerExceptionMapper
    public Response invalidAnswer(QuizGrader.InvalidAnswerException e) {
        return ApiError.response(Response.Status.BAD_REQUEST, e.getMessage());
    }
}
