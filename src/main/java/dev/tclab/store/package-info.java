/**
 * The app's durable state, in a relational database: learners, quiz attempts, step progress, check runs, baselines
 * and the cookie signing key. Embedded H2 in {@code tclab.data-dir} by default; PostgreSQL for a shared server.
 *
 * <p>The classes here implement the features' own store interfaces ({@code quiz.QuizResults},
 * {@code grading.StepProgress}, ...): features never import this package, and CDI picks these beans over the
 * features' in-memory {@code @DefaultBean}s.
 *
 * <p>Plain JDBC on the Agroal pool, not Hibernate ORM: the state is a handful of small typed tables written in
 * short, independent statements; the same portable SQL runs on H2 and PostgreSQL; there is no entity lifecycle,
 * session or lazy loading to get wrong; and the app starts faster without an ORM. The schema belongs to the Flyway
 * migrations in {@code db/migration} (numbered in blocks: V1 learners and
 * progress, V10 the lab registry, V20 workshops and host sessions, V30 the warm pool, V40 and up later changes),
 * never to generated DDL.
 */
package dev.tclab.store;
