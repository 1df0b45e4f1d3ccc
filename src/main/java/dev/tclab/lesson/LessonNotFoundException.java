package dev.tclab.lesson;

/** No lesson, or no quiz in a lesson, answers to the given name. */
public class LessonNotFoundException extends Exception {

    public LessonNotFoundException(String message) {
        super(message);
    }
}
