#!/usr/bin/perl
# SPDX-License-Identifier: LGPL-2.1-or-later
# export-rewrite.pl MACHINE_ID HOSTNAME [BOOT_ID,...] < EXPORT > EXPORT
# Rewrites a journal export stream (journalctl -o export; systemd's JOURNAL_EXPORT_FORMATS) as if it came from
# another machine: _MACHINE_ID and _HOSTNAME are replaced; with a list of boot IDs only their entries are kept.
# Entries end with an empty line; a field is KEY=VALUE, or (binary, or with a newline) KEY, a newline, a 64-bit
# little-endian length, the bytes and a newline.
use strict;
use warnings;
binmode STDIN;
binmode STDOUT;
my ($mid, $host, $boots) = @ARGV;
die "usage: $0 MACHINE_ID HOSTNAME [BOOT_ID,...]\n" unless defined $host && $mid =~ /^[0-9a-f]{32}$/;
my %keep = map { $_ => 1 } split /,/, ($boots // '');
my (@fields, $boot);
sub entry_done {
        print @fields, "\n" if @fields && (!%keep || (defined $boot && $keep{$boot}));
        @fields = ();
        undef $boot;
}
while (defined(my $line = <STDIN>)) {
        if ($line eq "\n") {
                entry_done();
                next;
        }
        if ($line !~ /=/) {
                chomp(my $key = $line);
                read(STDIN, my $len, 8) == 8 or die "cut short in the length of $key\n";
                my $n = unpack('Q<', $len);
                read(STDIN, my $data, $n) == $n or die "cut short in the data of $key\n";
                my $nl = '';
                (read(STDIN, $nl, 1) == 1 && $nl eq "\n") or die "no newline after the data of $key\n";
                $line = $key eq '_HOSTNAME' ? "_HOSTNAME=$host\n" :
                        $key eq '_MACHINE_ID' ? "_MACHINE_ID=$mid\n" : "$key\n$len$data\n";
        } elsif ($line =~ /^_MACHINE_ID=/) {
                $line = "_MACHINE_ID=$mid\n";
        } elsif ($line =~ /^_HOSTNAME=/) {
                $line = "_HOSTNAME=$host\n";
        } elsif ($line =~ /^_BOOT_ID=([0-9a-f]+)$/) {
                $boot = $1;
        }
        push @fields, $line;
}
entry_done();
