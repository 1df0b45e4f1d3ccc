-- The client a live lab's start was counted against (StartQuota: an IP address, or an IPv6 /64), so the start
-- quota counts adopted labs after a restart. Cleared when the lab ends: the registry keeps no address of ended labs.
ALTER TABLE lab ADD COLUMN client VARCHAR(100);
