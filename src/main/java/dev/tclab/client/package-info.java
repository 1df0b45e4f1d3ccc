/**
 * Who a request comes from and how often it may fail: the client key of an address (an IPv6 /64 counts as one client)
 * and the limits on guessing (join codes, host passwords). Imports nothing of tclab.
 */
package dev.tclab.client;
