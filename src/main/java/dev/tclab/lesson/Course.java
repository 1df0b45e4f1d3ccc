package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The course: the catalog's tracks in order (course.yml beside the built-in lessons, then the one in
 * {@code tclab.lessons.external-dir}, whose track replaces a built-in track of the same id and whose other tracks come
 * after the built-in ones). A lesson is in one track at most; a lesson in none is listed under "More lessons". Only
 * lessons that exist are in its tracks: a listing that names no lesson, or a lesson's second listing, is one of
 * {@link #problems}, which the catalog and {@code bin/validate-lessons} report.
 */
public record Course(List<Track> tracks, List<FileProblem> problems) {

    public static final Course NONE = new Course(List.of(), List.of());

    /**
     * Where a course file lists a lesson, so a problem with the listing points at it.
     *
     * @param field the listing as authors read it, e.g. {@code tracks[0].lessons[1]}
     */
    public record Listing(String slug, String track, String file, int line, String field) {}

    /** One course.yml as read: the tracks that fit its schema, where each lesson is listed, and its problems. */
    public record File(List<Track> tracks, List<Listing> listings, List<FileProblem> problems) {

        public File {
            tracks = List.copyOf(tracks);
            listings = List.copyOf(listings);
            problems = List.copyOf(problems);
        }
    }

    /**
     * A lesson's place in the course.
     *
     * @param place 1-based, of {@code of} lessons in the track
     */
    public record Place(Track track, int place, int of) {}

    public Course {
        tracks = List.copyOf(tracks);
        problems = List.copyOf(problems);
    }

    /**
     * The course of these files, in order (a later file's track replaces an earlier one's of the same id), holding only
     * the lessons of {@code known}.
     *
     * @param known the slugs of every lesson there is, working or broken
     */
    public static Course of(List<File> files, Collection<String> known) {
        Map<String, File> owners = new LinkedHashMap<>();
        Map<String, Track> byId = new LinkedHashMap<>();
        List<FileProblem> problems = new ArrayList<>();
        for (File file : files) {
            problems.addAll(file.problems());
            for (Track track : file.tracks()) {
                byId.put(track.id(), track);
                owners.put(track.id(), file);
            }
        }
        Map<String, Listing> taken = new HashMap<>();
        List<Track> tracks = new ArrayList<>();
        for (Track track : byId.values()) {
            List<String> lessons = new ArrayList<>();
            for (Listing listing : owners.get(track.id()).listings()) {
                if (!listing.track().equals(track.id())) {
                    continue;
                }
                Listing first = taken.putIfAbsent(listing.slug(), listing);
                if (!known.contains(listing.slug())) {
                    problems.add(problem(
                            listing,
                            "no lesson '" + listing.slug() + "' exists; name a lesson by its folder name, e.g. "
                                    + known.stream().sorted().findFirst().orElse("tbf-basics")));
                } else if (first != null) {
                    problems.add(problem(
                            listing,
                            "the lesson '" + listing.slug() + "' is already in the track '" + first.track() + "' ("
                                    + first.file() + ":" + first.line() + "); a lesson belongs to one track"));
                } else {
                    lessons.add(listing.slug());
                }
            }
            if (!lessons.isEmpty()) {
                tracks.add(new Track(track.id(), track.title(), track.summary(), lessons));
            }
        }
        return new Course(tracks, problems);
    }

    private static FileProblem problem(Listing listing, String message) {
        return new FileProblem(listing.file(), listing.line(), listing.field(), message);
    }

    /** The lesson's track and place in it; empty for a lesson in no track. */
    public Optional<Place> place(String slug) {
        for (Track track : tracks) {
            int at = track.lessons().indexOf(slug);
            if (at >= 0) {
                return Optional.of(new Place(track, at + 1, track.lessons().size()));
            }
        }
        return Optional.empty();
    }

    public Optional<Track> track(String id) {
        return tracks.stream().filter(t -> t.id().equals(id)).findFirst();
    }

    /** The track after this one in the course's order; empty after the last. */
    public Optional<Track> after(Track track) {
        int at = tracks.indexOf(track);
        return at < 0 || at + 1 >= tracks.size() ? Optional.empty() : Optional.of(tracks.get(at + 1));
    }
}
