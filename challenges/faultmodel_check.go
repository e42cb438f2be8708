package challenges

import "fmt"

// checkFaultModel checks what the schema cannot about the fault model: names
// that must be unique, and numbers and settings that must agree.
func (c *checker) checkFaultModel(m FaultModel) {
	c.uniqueNames("fault_model.remotes", "remote", len(m.Remotes), func(i int) string { return m.Remotes[i].Name })
	c.uniqueNames("fault_model.leases", "lease", len(m.Leases), func(i int) string { return m.Leases[i].Name })
	c.uniqueNames("fault_model.timeouts", "time-out", len(m.Timeouts), func(i int) string { return m.Timeouts[i].Name })
	for i, r := range m.Remotes {
		field := fmt.Sprintf("fault_model.remotes[%d]", i)
		lo, _ := r.Latency.Min.Millis()
		hi, _ := r.Latency.Max.Millis()
		if lo > hi {
			c.at(field+".latency.min", fmt.Sprintf("the shortest call (%s) is longer than the longest (%s)", r.Latency.Min, r.Latency.Max),
				"swap min and max, or correct one of them")
		}
	}
	for i, l := range m.Leases {
		if ms, ok := l.TTL.Millis(); ok && ms == 0 {
			c.at(fmt.Sprintf("fault_model.leases[%d].ttl", i), "a lease of 0 lasts no time at all", "write how long the lease lasts, e.g. 30 s")
		}
	}
	if m.Pauses != nil {
		if ms, ok := m.Pauses.Max.Millis(); ok && ms == 0 {
			c.at("fault_model.pauses.max", "a pause of 0 is no pause", "write the longest freeze, or unbounded; remove pauses if workers never freeze")
		}
	}
	c.checkDelivery(m.Delivery)
}

// checkDelivery checks that the delivery settings agree with its semantics.
func (c *checker) checkDelivery(d Delivery) {
	switch d.Semantics {
	case "once":
		if d.Duplicates != "" && d.Duplicates != "none" {
			c.at("fault_model.delivery.duplicates", fmt.Sprintf("work delivered once has no duplicates, but duplicates is %s", d.Duplicates),
				"set duplicates: none, or semantics: at-least-once")
		}
		for field, v := range map[string]Duration{"redelivery_after": d.RedeliveryAfter, "redelivery_until": d.RedeliveryUntil} {
			if v != "" {
				c.at("fault_model.delivery."+field, "work delivered once is never delivered again",
					"remove "+field+", or set semantics: at-least-once")
			}
		}
	case "at-least-once":
		if d.Duplicates == "none" {
			c.at("fault_model.delivery.duplicates", "at-least-once delivery can deliver the same work twice, but duplicates is none",
				"set duplicates: sequential or overlapping, or semantics: once")
		}
	}
	after, okAfter := d.RedeliveryAfter.Millis()
	until, okUntil := d.RedeliveryUntil.Millis()
	if okAfter && okUntil && until < after {
		c.at("fault_model.delivery.redelivery_until", fmt.Sprintf("redeliveries end (%s) before the first one can come (%s)", d.RedeliveryUntil, d.RedeliveryAfter),
			"correct redelivery_after or redelivery_until")
	}
}

// uniqueNames reports a name used twice in a list of the fault model.
func (c *checker) uniqueNames(list, what string, n int, name func(int) string) {
	first := map[string]int{}
	for i := range n {
		v := name(i)
		if j, dup := first[v]; dup && v != "" {
			c.at(fmt.Sprintf("%s[%d].name", list, i), fmt.Sprintf("duplicate %s name %q (also %s[%d])", what, v, list, j),
				"give every entry its own name")
			continue
		}
		first[v] = i
	}
}
