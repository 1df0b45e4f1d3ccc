package dev.tclab.lesson;

/**
 * One step file of a lesson, as the author wrote it (parameters not yet substituted).
 *
 * @param file      the file's name as shown in problems
 * @param title     the title from the front matter (may use parameters)
 * @param body      the markdown after the front matter
 * @param bodyLine  the file line the body starts on, so block problems carry file lines
 */
public record Step(String id, String title, String file, String body, int bodyLine) {}
