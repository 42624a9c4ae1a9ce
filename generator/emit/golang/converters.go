package golang

import "github.com/agui-gen/agui-gen/generator/ir"

// converters names the converters of one conversion between an earlier
// version and the current one, and queues each for writing once: a
// version's JSON Schema side and its proto side each have their own.
type converters struct {
	infix                  string // of the names, after "V": "03", "03Proto"
	oldVersion, curVersion string
	oldDecl, curDecl       map[ir.Decl]string // the two sides' Go type names
	rules                  map[string]bool    // the converters the rules write whole
	record                 *[]CompatLoss      // where a rule's converter is listed
	named                  map[string]pair
	names                  map[pair]string
	queue                  []pair
}

func newConverters(infix, oldVersion, curVersion string, rules map[string]bool, record *[]CompatLoss) converters {
	return converters{infix: infix, oldVersion: oldVersion, curVersion: curVersion, rules: rules, record: record,
		named: map[string]pair{}, names: map[pair]string{}}
}

// name is the converter's Go name: FromV03<current type> up, ToV03<earlier
// type> down; when one name would serve two conversions (0.3's TaskIdParams
// is both CancelTaskRequest and SubscribeToTaskRequest), the later one is
// named for both types (ToV03TaskIDParamsFromSubscribeToTaskRequest).
func (c *converters) name(p pair) string {
	if n, ok := c.names[p]; ok {
		return n
	}
	short, long := "FromV"+c.infix+c.curDecl[p.cur], "FromV"+c.infix+c.curDecl[p.cur]+"Of"+c.oldDecl[p.old]
	if !p.up {
		short, long = "ToV"+c.infix+c.oldDecl[p.old], "ToV"+c.infix+c.oldDecl[p.old]+"From"+c.curDecl[p.cur]
	}
	n := short
	if prev, taken := c.named[short]; taken && prev != p {
		n = long
	}
	c.names[p] = n
	return n
}

// need returns the name of p's converter and queues it, once; a rule of
// that name replaces it.
func (c *converters) need(p pair) string {
	n := c.name(p)
	if _, ok := c.named[n]; ok {
		return n
	}
	c.named[n] = p
	if !c.rules[n] {
		c.queue = append(c.queue, p)
	} else {
		from, to := c.ends(p)
		*c.record = append(*c.record, CompatLoss{Converter: n, From: from, To: to, Rule: true})
	}
	return n
}

// next takes the next converter to write off the queue.
func (c *converters) next() (pair, bool) {
	if len(c.queue) == 0 {
		return pair{}, false
	}
	p := c.queue[0]
	c.queue = c.queue[1:]
	return p, true
}

// ends names the versions and types p converts from and to ("0.3
// MessageSendConfiguration", "1.0 SendMessageConfiguration").
func (c *converters) ends(p pair) (from, to string) {
	from, to = c.oldVersion+" "+p.old.DeclName(), c.curVersion+" "+p.cur.DeclName()
	if !p.up {
		from, to = to, from
	}
	return from, to
}
