package dev.tclab.lab;

import java.util.Set;

/** Which labs have a page open on them now (a terminal or statistics socket); implemented by the web layer. */
@FunctionalInterface
public interface LabWatchers {

    Set<String> watchedLabs();
}
