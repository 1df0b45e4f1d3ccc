package dev.tclab.lab;

/**
 * No running lab with that id belongs to the asking learner. A lab of someone else is reported as missing, on
 * purpose; a lab of theirs that ended says why it ended. Neither names the lab's id, which means nothing to a learner.
 */
public class LabNotFoundException extends Exception {

    /** No lab of that id is the learner's (it is gone, or someone else's). */
    public LabNotFoundException() {
        super("You have no such lab (it was removed, or the link is not yours). Start the lesson's lab from its page.");
    }

    private LabNotFoundException(String message) {
        super(message);
    }

    /** The learner's lab is not running: it ended for {@code reason}, or it is still queued or starting. */
    static LabNotFoundException notRunning(Lab lab) {
        return new LabNotFoundException(
                switch (lab.phase()) {
                    case QUEUED, STARTING -> "Your lab is still starting; wait until the lesson page says it is ready.";
                    default ->
                        "Your lab is not running any more." + (lab.reason() == null ? "" : " " + lab.reason())
                                + " Start it again from the lesson.";
                });
    }
}
