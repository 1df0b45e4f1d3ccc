package dev.tclab.lab;

import dev.tclab.http.Quote;

/** No lab with that id belongs to the asking learner (labs of others are reported the same way, on purpose). */
public class LabNotFoundException extends Exception {

    public LabNotFoundException(String labId) {
        super("No lab " + Quote.of(labId) + " of yours exists. It may have been stopped after being idle; start it again from the lesson.");
    }
}
