//go:build unix && !linux

package explore

// mapPopulate is Linux's MAP_POPULATE; elsewhere pages fault in on use.
const mapPopulate = 0
